"""Test doubles of the engine: executors of abstract event models (:mod:`.model`) and the cycle
cut-off they share (:mod:`.cycles`), so that the engine can be checked against brute force
without a browser. Nothing at run time imports this package."""
