// Converts as you type, at the day's rate (loaded with an XMLHttpRequest); a dash until the rate is known.
const amount = document.getElementById("amount");
const result = document.getElementById("result");
let rate = null;

function update() {
  const pounds = Number.parseFloat(amount.value);
  result.textContent = rate === null || Number.isNaN(pounds) ? "—" : `€${(pounds * rate).toFixed(2)}`;
}

const request = new XMLHttpRequest();
request.open("GET", "api/rates.json");
request.responseType = "json";
request.addEventListener("load", () => {
  rate = request.response.GBP.EUR;
  document.getElementById("rate").textContent = `£1 = €${rate} (${request.response.date})`;
  update();
});
request.send();

amount.addEventListener("input", update);
