var list = document.getElementById("list");
var item = document.createElement("li");
item.textContent = "second";
list.appendChild(item);
var zero = document.createElement("li");
zero.textContent = "zero";
list.insertBefore(zero, list.firstChild);
var box = document.getElementById("box");
box.setAttribute("title", "set");
box.classList.add("b");
box.style.color = "red";
box.dataset.state = "old";
box.innerHTML = "<b>bold</b>";
var clicks = 0;
box.addEventListener("click", function () { clicks++; });
localStorage.setItem("k", "v");
document.cookie = "c=1";
var holder = {};
Object.defineProperty(holder, "x", { value: 1, enumerable: true });
setTimeout(function () {
  box.click();
  document.getElementById("name").value = "typed";
  list.removeChild(item);
  var calls = window.polyfillCalls;
  var names = Object.keys(calls).sort();
  document.getElementById("out").textContent = "clicks " + clicks + ", x " + holder.x + ", " +
    names.map(function (n) { return n + " " + calls[n]; }).join(", ");
}, 10);
