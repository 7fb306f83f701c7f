"""What the rewritten code logs: locations, kinds, digests and sites."""

from __future__ import annotations

from pathlib import Path

from jsrun import Job, run_jobs

from webr4.instrument import CachedRewriter, rewrite

Entry = tuple[str, str, str | None]


def _logged(source: str, **options: object) -> list[list[str | None]]:
    result = rewrite(source, "t.js", script_id="t", **options)  # type: ignore[arg-type]
    kind = "module" if options.get("module") else "handler" if options.get("handler") else "script"
    (outcome,) = run_jobs([Job(result.code, kind, True)])
    assert outcome.log is not None
    return outcome.log


def _accesses(log: list[list[str | None]]) -> list[Entry]:
    """(kind, location, digest) without sites."""
    return [(kind, location, digest) for kind, location, _site, digest in log]  # type: ignore[misc]


def test_global_write_then_read() -> None:
    log = _accesses(_logged("x = 1; var y = x; window_ = globalThis; window_.z = 'hello';"))
    assert log[:3] == [("w", "global:x", "n:1"), ("r", "global:x", None), ("w", "global:y", "n:1")]
    assert ("w", "global:z", "s:hello") in log


def test_top_level_declarations_are_globals() -> None:
    log = _accesses(_logged("function init() {}\nlet a = 2; const b = {}; class K {}\n"))
    assert log[0][:2] == ("w", "global:init")
    assert ("w", "global:a", "n:2") in log
    assert any(entry[:2] == ("w", "global:b") and (entry[2] or "").startswith("o:") for entry in log)
    assert any(entry[:2] == ("w", "global:K") for entry in log)


def test_typeof_undeclared_logs_a_read() -> None:
    assert _accesses(_logged("typeof nothingHere;")) == [("r", "global:nothingHere", None)]


def test_closures_of_one_scope_share_a_location_instances_do_not() -> None:
    source = """
    function make() {
      var queue = [];
      return [function add() { queue = queue.concat([1]); }, function size() { return queue.length; }];
    }
    var one = make(), two = make();
    one[0](); one[1](); two[1]();
    """
    locations = [location for _kind, location, _digest in _accesses(_logged(source)) if ":queue" in location]
    first, second = locations[0], locations[1]  # the two initialisations
    assert first.startswith("scope:") and second.startswith("scope:") and first != second
    # add reads and writes, size reads, all in the first instance; then size of the second
    assert locations == [first, second, first, first, first, second]


def test_uncaptured_locals_are_not_logged() -> None:
    log = _accesses(_logged("function f() { var local = 1; local++; return local; } f();"))
    assert [entry for entry in log if "local" in entry[1]] == []


def test_property_writes_are_keyed_by_object_identity() -> None:
    source = "var a = {}, b = {}; a.p = 1; b.p = 1; a.p = 2; a['p']++; delete b.p; a[0] = true;"
    log = [entry for entry in _accesses(_logged(source)) if entry[1].startswith("prop:")]
    assert log == [
        ("w", "prop:1.p", "n:1"),
        ("w", "prop:2.p", "n:1"),
        ("w", "prop:1.p", "n:2"),
        ("r", "prop:1.p", None),
        ("w", "prop:1.p", "n:3"),
        ("w", "prop:2.p", "u"),
        ("w", "prop:1.0", "b:true"),
    ]


def test_compound_and_update_digest_the_new_value() -> None:
    log = _accesses(_logged("var n = 5; n += 2; n++; var o = {v: 1}; o.v *= 10; o.v--;"))
    writes = [entry for entry in log if entry[0] == "w" and entry[1] in ("global:n", "prop:1.v")]
    assert [digest for _k, _l, digest in writes] == ["n:5", "n:7", "n:8", "n:10", "n:9"]


def test_module_top_level_captured_variables() -> None:
    log = _accesses(_logged("let hits = 0; export function hit() { hits++; } hit();", module=True))
    assert ("r", "scope:mt:hits", None) in log and ("w", "scope:mt:hits", "n:1") in log


def test_handler_locals_are_not_globals() -> None:
    log = _accesses(_logged("var v = event.type; shared = v; return v", handler=True))
    assert ("w", "global:shared", "s:click") in log
    assert all("global:v" != location for _k, location, _d in log)


def test_disabled_logging_drops_and_flush_resets() -> None:
    code = rewrite("var a = 1; a;", "t.js").code
    program = code + "\nvar first = __webr4.log.flush().length; __webr4.log.enabled = false; a = 2; a;"
    program += "\n__webr4.log.enabled = true; console.log(first, __webr4.log.flush().length);"
    (outcome,) = run_jobs([Job(program, "script", True)])
    assert outcome.output == ["2 0"]


def test_sites_point_into_the_original_source() -> None:
    source = "var a = 1;\nfunction f() {\n  return a.b;\n}\n"
    result = rewrite(source, "https://example.test/app.js", script_id="7")
    places = set(result.sites.values())
    assert "https://example.test/app.js:3:10" in places  # the read of `a`
    assert "https://example.test/app.js:3:12" in places  # the property `b`
    assert all(site.startswith("7:") for site in result.sites)


def test_uncontrolled_constructs_are_reported() -> None:
    source = "with (o) { x = 1; }\neval('1');\nnew Function('return 1');\nsetTimeout('go()', 5);\n"
    result = rewrite(source, "u.js")
    assert [item.kind for item in result.uncontrolled] == ["with", "eval", "Function", "string-timer"]
    assert result.uncontrolled[0].site == "u.js:1:1"
    assert "__webr4" not in result.code.splitlines()[0].split("{", 1)[1]


def test_dynamic_imports_hand_their_specifier_and_promise_to_the_runtime() -> None:
    source = 'const m = await import("./a.js");\nimport.meta.url;\nimport(/* why */ `./${n}.js`, o);\n'
    lines = rewrite(source, "i.mjs", module=True).code.splitlines()
    assert lines[0] == 'const m = await __webr4.importing(import(__webr4.importUrl("./a.js",import.meta.url)));'
    assert "__webr4.import" not in lines[1]
    assert lines[2].startswith("__webr4.importing(import(/* why */ __webr4.importUrl(`./${")
    assert lines[2].endswith('}.js`,import.meta.url), __webr4.log.r("0:2","o",0)(o)));')
    classic = rewrite('import("./a.js");', "https://example.test/app.js").code
    assert classic == '__webr4.importing(import(__webr4.importUrl("./a.js","https://example.test/app.js")));'


def test_unparsable_script_is_left_unchanged() -> None:
    result = rewrite("var = ;", "bad.js")
    assert result.code == "var = ;" and result.uncontrolled[0].kind == "parse-error"


def test_non_ascii_columns_count_characters() -> None:
    result = rewrite("var s = 'ééé'; s.x;", "n.js")
    assert "n.js:1:18" in result.sites.values()


def test_cache_memory_and_disk(tmp_path: Path) -> None:
    source = "var q = 1; q++;"
    cached = CachedRewriter(max_entries=2, directory=tmp_path)
    first = cached.rewrite(source, "c.js")
    assert cached.rewrite(source, "c.js") is first
    assert len(list(tmp_path.glob("*.json"))) == 1
    fresh = CachedRewriter(directory=tmp_path)
    assert fresh.rewrite(source, "c.js") == first
    assert cached.rewrite(source, "other.js") != first


def test_deeply_nested_expression() -> None:
    source = "var total = " + "+".join(["o.v"] * 3000) + ";"
    code = rewrite(source, "deep.js").code
    (outcome,) = run_jobs([Job("var o = {v: 1};" + code + "console.log(total);", "script", True)])
    assert outcome.output == ["3000"]
