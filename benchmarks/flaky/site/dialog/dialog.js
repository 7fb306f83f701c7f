// The password dialog saves through the server, then fades out; once faded it leaves the page.
const backdrop = document.getElementById("backdrop");
const form = document.getElementById("password-form");

function close() {
  backdrop.classList.add("closing");
  backdrop.addEventListener("transitionend", () => {
    backdrop.hidden = true;
    backdrop.classList.remove("closing");
  }, { once: true });
}

document.getElementById("open").addEventListener("click", () => {
  backdrop.hidden = false;
  form.elements[0].focus();
});
document.getElementById("cancel").addEventListener("click", () => { backdrop.hidden = true; });

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const response = await fetch("api/password.json");
  const result = await response.json();
  document.getElementById("changed").textContent = result.changed;
  close();
});
