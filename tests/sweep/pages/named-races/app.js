import { add } from "./store.js";

window.app = { cart: { items: [{ qty: 0 }] } };

class Tally {
  constructor() {
    this.n = 0;
  }
}
const tallies = new WeakMap();
tallies.set(document, new Tally());

const counter = (function () {
  let state = { hits: 0 };
  return { bump(n) { state.hits = n; } };
})();

function get(url, onload) {
  const xhr = new XMLHttpRequest();
  xhr.open("GET", url);
  xhr.onload = () => onload(JSON.parse(xhr.responseText));
  xhr.send();
}

get("a.json", (data) => {
  window.app.cart.items[0].qty = data.qty;
  counter.bump(1);
  add(1);
  tallies.get(document).n = 1;
  const log = document.getElementById("log");
  log.textContent = "a loaded";
  document.querySelector("p > span").textContent = "A";
  const email = document.createElement("input");
  email.id = "email";
  document.getElementById("signup").appendChild(email);
});

get("b.json", (data) => {
  window.app.cart.items[0].qty = data.qty;
  counter.bump(2);
  add(2);
  tallies.get(document).n = 2;
  document.getElementById("log").textContent = "b loaded";
  document.querySelector("p > span").textContent = "B";
  document.getElementById("email").value = "ada@example.com";
});
