function sloppy(a, b) { arguments[0] = 10; b = 20; return [a, arguments[1], arguments.length]; }
function strictFn(a) { "use strict"; arguments[0] = 10; return [a, arguments[0]]; }
function outer() { var inner = () => arguments[0] + arguments.length; return inner(); }
function defaults(a, b = a) { a = 5; return [arguments[0], b]; }
function captured(a) { return function () { a++; return arguments.length + a; }; }
console.log(sloppy(1, 2).join(), strictFn(1).join(), outer(4, 5), defaults(1).join(), captured(1)(9, 9));
