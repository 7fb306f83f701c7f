// Turns the phone field into an international one (a country prefix before the number) and makes
// the form work: Continue sums the delivery up.
const form = document.getElementById("delivery");
const field = document.getElementById("phone-field");
const summary = document.getElementById("summary");

field.innerHTML = `
  <span class="prefix" aria-hidden="true">+44</span>
  <input id="phone" name="phone" type="tel" autocomplete="tel-national" placeholder="7700 900000">`;

form.addEventListener("submit", (event) => {
  event.preventDefault();
  const speed = form.elements.speed.value;
  const phone = form.elements.phone.value.trim();
  summary.textContent = `${speed} delivery, we will call +44 ${phone}`;
});
form.querySelector("button").disabled = false;
