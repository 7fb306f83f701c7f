function factory(prefix) {
  var made = 0;
  class Thing {
    label = prefix + made++;
    static count = 0;
    static { Thing.count = 10; }
    constructor() { Thing.count++; }
    describe() { return this.label + "/" + made + "/" + Thing.count; }
  }
  return Thing;
}
var T = factory("t");
var a = new T(), b = new T();
console.log(a.describe(), b.describe());
var Mixin = (B) => class extends B { mixed() { return "mixed"; } };
class Final extends Mixin(Object) {}
console.log(new Final().mixed(), Final.name);
var accessors = { _v: 1, get v() { return this._v; }, set v(x) { this._v = x * 2; } };
accessors.v = 3; accessors.v += 1;
console.log(accessors.v, "v" in accessors, accessors instanceof Object);
