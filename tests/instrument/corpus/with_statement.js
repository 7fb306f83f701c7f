var scope = { x: 1, y: 2 };
var x = 100;
with (scope) { x = x + y; var declaredInWith = x; }
console.log(scope.x, x, declaredInWith);
