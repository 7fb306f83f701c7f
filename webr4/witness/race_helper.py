"""The source of ``Race``, the helper a generated regression test carries (one per language), as
templates: each line is tagged with the lever it serves (``held|``, ``clock|``, ``arrived|``,
``errors|``, ``paths|``), and :mod:`webr4.witness.writers` keeps only the lines of the levers a test
uses, then fills in ``{origin}`` and ``{switch}``."""

from __future__ import annotations

PYTHON_HELPER = '''# The app's origin when webr4 recorded it; --base-url overrides it.
RECORDED_AT = {origin}
LEVERS = os.environ.get("{switch}", "on") != "off"
early|EARLY_MS = 10_000  # how long an early action waits before it lets the held responses go


class Race:
    """The levers that force the racing order (all off with {switch}=off)."""

    def __init__(self, page: Page) -> None:
        self.page = page
errors|        self.errors: list[str] = []
held|        self.held: dict[str, tuple[Callable[[str], bool], list[Route]]] = {{}}
clock|        self.ms = 0  # the paused clock's time, after the page's start
clock|        self.late = 0  # how far the page has run behind webr4's times
errors|        page.on("pageerror", lambda e: self.errors.append(f"{{e.name}}: {{e.message}}"))
arrived|        self.arrivals: list[str] = []
arrived|        page.on("requestfinished", lambda r: self.arrivals.append(urlsplit(r.url).path))
held|
held|    def hold(self, path: str) -> str:
held|        """Hold back the responses to ``path`` until :meth:`release`."""
held|        if LEVERS:
held|            routes: list[Route] = []
held|            self.held[path] = (lambda url: urlsplit(url).path == path), routes
held|            self.page.route(self.held[path][0], lambda route: routes.append(route))
held|        return path
held|
held|    def release(self, path: str) -> None:
held|        """Let the held responses to ``path`` go, and every later one through; then
held|        wait until it has arrived (asked for or not yet) and, the last held one gone,
held|        until the page is quiet: webr4 takes a step on a quiet page."""
held|        matches, routes = self.held.pop(path, (None, []))
held|        if matches is None:
held|            return
held|        self.page.unroute(matches)
held|        for route in routes:
held|            try:
held|                route.continue_()
held|            except Error:  # the page went on without it
held|                pass
held|        self.arrived(path)
held|        if self.held:  # no page is quiet while a response is held
held|            return
held|        try:  # quiet: 500 ms with no request (an app that polls never is)
held|            self.page.wait_for_load_state("networkidle", timeout=10_000)
held|        except Error:
held|            pass
early|
early|    def early(self, action: Callable[..., Any], *args: str, held: list[str]) -> None:
early|        """Act before the held responses arrive; when the app waits for them first (the
early|        race is fixed that way), let them go and act after them. With the levers off, act
early|        after them, as in the page's own order."""
early|        if not LEVERS:
early|            for path in held:
early|                self.arrived(path)
early|            return action(*args)
early|        try:
early|            action(*args, timeout=EARLY_MS)
early|        except Error:
early|            for path in held:
early|                self.release(path)
early|            action(*args)
arrived|
arrived|    def arrived(self, path: str) -> None:
arrived|        """Wait until the response to ``path`` has arrived (15 s at most: a fixed app
arrived|        may not ask for it), and the page's task for it has run."""
arrived|        for _ in range(150):
arrived|            if path in self.arrivals:
arrived|                break
arrived|            self.page.wait_for_timeout(100)
arrived|        self.page.wait_for_timeout(100)
clock|
clock|    def pause_clock(self) -> None:
clock|        if LEVERS:
clock|            self.page.clock.install()
clock|            self.page.clock.pause_at(datetime.now() + timedelta(seconds=1))
clock|
clock|    def run_clock(
clock|        self, to_ms: int, shows: Locator | None = None, at_most: float = float("inf")
clock|    ) -> None:
clock|        """Run the paused clock to ``to_ms``; then, while ``shows`` is hidden (3 s at
clock|        most), on by 4 ms at a time, never past ``at_most``: the app's timers render it.
clock|        The time so waited puts every later time off alike (a timer set by a later step
clock|        is due that much later)."""
clock|        if not LEVERS:
clock|            return
clock|        to_ms, at_most = to_ms + self.late, at_most + self.late
clock|        if to_ms > self.ms:
clock|            self.page.clock.run_for(to_ms - self.ms)
clock|        self.ms = start = max(self.ms, to_ms)
clock|        for _ in range(120):
clock|            if shows is None or self.ms + 4 > at_most or shows.is_visible():
clock|                break
clock|            self.page.clock.run_for(4)
clock|            self.ms += 4
clock|            self.page.wait_for_timeout(25)
clock|        self.late += self.ms - start

    def done(self) -> None:
        """Let go of every lever: the order is decided."""
held|        for path in list(self.held):
held|            self.release(path)
clock|        if LEVERS:
clock|            self.page.clock.resume()
        self.page.wait_for_load_state("load")
'''

TYPESCRIPT_HELPER = '''
// The app's origin when webr4 recorded it; baseURL in the config overrides it.
const RECORDED_AT = {origin};
const LEVERS = process.env.{switch} !== "off";
early|// How long an early action waits before it lets the held responses go.
early|const EARLY_MS = 10_000;

held|type Held = {{ matches: (url: URL) => boolean; routes: Route[] }};
held|
/** The levers that force the racing order (all off with {switch}=off). */
class Race {{
errors|  errors: string[] = [];
arrived|  private arrivals: string[] = [];
held|  private held = new Map<string, Held>();
clock|  private ms = 0; // the paused clock's time, after the page's start
clock|  private late = 0; // how far the page has run behind webr4's times

  constructor(private page: Page) {{
errors|    page.on("pageerror", (e) => this.errors.push(`${{e.name}}: ${{e.message}}`));
arrived|    page.on("requestfinished", (r) => this.arrivals.push(pathOf(r.url())));
  }}
held|
held|  /** Hold back the responses to `path` until release(path). */
held|  async hold(path: string): Promise<string> {{
held|    if (LEVERS) {{
held|      const matches = (url: URL) => url.pathname === path;
held|      const routes: Route[] = [];
held|      this.held.set(path, {{ matches, routes }});
held|      await this.page.route(matches, (route) => void routes.push(route));
held|    }}
held|    return path;
held|  }}
held|
held|  /** Let the held responses to `path` go, and every later one through; then
held|   * wait until it has arrived (asked for or not yet) and the page is quiet. */
held|  async release(path: string): Promise<void> {{
held|    const held = this.held.get(path);
held|    if (!held) return;
held|    this.held.delete(path);
held|    await this.page.unroute(held.matches);
held|    for (const route of held.routes) await route.continue().catch(() => {{}});
held|    await this.arrived(path);
held|    if (this.held.size) return; // no page is quiet while a response is held
held|    // webr4 takes the next step on a quiet page: 500 ms with no request
held|    // (10 s at most: an app that polls is never quiet)
held|    await this.page
held|      .waitForLoadState("networkidle", {{ timeout: 10_000 }})
held|      .catch(() => {{}});
held|  }}
early|
early|  /** Act before the held responses arrive; if the app waits for them first
early|   * (the race is fixed that way), let them go and act after them. With the
early|   * levers off, act after them, as in the page's own order. */
early|  async early(
early|    action: (options: {{ timeout?: number }}) => Promise<unknown>,
early|    ...held: string[]
early|  ) {{
early|    if (!LEVERS) {{
early|      for (const path of held) await this.arrived(path);
early|      return action({{}});
early|    }}
early|    try {{
early|      await action({{ timeout: EARLY_MS }});
early|    }} catch {{
early|      for (const path of held) await this.release(path);
early|      await action({{}});
early|    }}
early|  }}
arrived|
arrived|  /** Wait until the response to `path` has arrived (15 s at most: a fixed app
arrived|   * may not ask for it), and the page's task for it has run. */
arrived|  async arrived(path: string): Promise<void> {{
arrived|    for (let tries = 0; tries < 150 && !this.arrivals.includes(path); tries++) {{
arrived|      await this.page.waitForTimeout(100);
arrived|    }}
arrived|    await this.page.waitForTimeout(100);
arrived|  }}
clock|
clock|  async pauseClock(): Promise<void> {{
clock|    if (!LEVERS) return;
clock|    await this.page.clock.install();
clock|    await this.page.clock.pauseAt(Date.now() + 1000);
clock|  }}
clock|
clock|  /** Run the paused clock to `toMs`; then, while `shows` is hidden (3 s at most),
clock|   *  on by 4 ms at a time, never past `atMost`: the app's timers render it. The time
clock|   *  so waited puts every later time off alike (a later step's timer is due later). */
clock|  async runClock(
clock|    toMs: number,
clock|    shows?: Locator,
clock|    atMost = Infinity,
clock|  ): Promise<void> {{
clock|    if (!LEVERS) return;
clock|    toMs += this.late;
clock|    atMost += this.late;
clock|    if (toMs > this.ms) await this.page.clock.runFor(toMs - this.ms);
clock|    this.ms = Math.max(this.ms, toMs);
clock|    const start = this.ms;
clock|    for (let tick = 0; tick < 120 && shows && this.ms + 4 <= atMost; tick++) {{
clock|      if (await shows.isVisible()) break;
clock|      await this.page.clock.runFor(4);
clock|      this.ms += 4;
clock|      await this.page.waitForTimeout(25);
clock|    }}
clock|    this.late += this.ms - start;
clock|  }}

  /** Let go of every lever: the order is decided. */
  async done(): Promise<void> {{
held|    for (const path of [...this.held.keys()]) await this.release(path);
clock|    if (LEVERS) await this.page.clock.resume();
    await this.page.waitForLoadState("load");
  }}
}}
paths|
paths|function pathOf(url: string): string {{
paths|  return new URL(url).pathname;
paths|}}
'''
