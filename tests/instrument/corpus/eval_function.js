function withEval() { var local = 5; return eval("local + 1"); }
var indirect = (0, eval)("typeof withEval");
var fromFunction = new Function("a", "return a * 2");
console.log(withEval(), indirect, fromFunction(4), Function("return 3")());
