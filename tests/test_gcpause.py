"""Pausing the cyclic collector is scoped: the setting found is the setting left, even on error."""

from __future__ import annotations

import gc

import pytest

from webr4.gcpause import gc_paused


def test_the_collector_is_off_inside_and_as_it_was_after_even_when_the_block_raises():
    assert gc.isenabled()
    with pytest.raises(RuntimeError):
        with gc_paused():
            assert not gc.isenabled()
            with gc_paused():
                assert not gc.isenabled()
            assert not gc.isenabled()
            raise RuntimeError("the block failed")
    assert gc.isenabled()
    gc.disable()
    try:
        with gc_paused():
            pass
        assert not gc.isenabled()
    finally:
        gc.enable()
