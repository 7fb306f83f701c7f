var seen = [];
var table = new Map();
table.set("sync", 1);
seen.push("sync");
setTimeout(function () { seen.push("timer"); }, 0);
var interval = setInterval(function () { seen.push("interval"); clearInterval(interval); }, 20);
Promise.resolve().then(function () { seen.push("microtask"); });
var request = new XMLHttpRequest();
request.open("GET", "builtins-data.json");
request.onload = function () { seen.push("xhr " + JSON.parse(request.responseText).n); };
request.send();
fetch("builtins-data.json").then(function (response) { return response.json(); })
  .then(function (data) { seen.push("fetch " + data.n); });
window.addEventListener("message", function (e) { seen.push("message " + e.data); });
window.postMessage("hello", "*");
requestAnimationFrame(function () { seen.push("frame"); });
var image = new Image();
image.onerror = function () { seen.push("image error"); };
image.src = "no-such-image.png";
window.addEventListener("load", function () { seen.push("load"); });
setTimeout(function () {
  var calls = window.builtinCalls;
  var names = [];
  for (var name in calls) names[names.length] = name;
  names.sort();
  var counted = names.map(function (n) { return n + " " + calls[n]; }).join(", ");
  document.getElementById("out").textContent = seen.sort().join(", ") + " | " + counted;
}, 1000);
