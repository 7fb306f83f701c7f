class Counter {
  #count = 0;
  static #instances = 0;
  static { Counter.#instances = 100; }
  constructor() { Counter.#instances++; }
  #bump(by) { this.#count += by; return this; }
  inc() { return this.#bump(1).#count; }
  static has(o) { return #count in o; }
  static get instances() { return Counter.#instances; }
}
var c = new Counter(); c.inc(); c.inc(); new Counter();
console.log(c.inc(), Counter.has(c), Counter.has({}), Counter.instances);
