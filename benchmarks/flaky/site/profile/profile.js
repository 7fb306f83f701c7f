// The form is filled in from the signed-in user's profile; the cookie notice comes up a moment later.
const form = document.getElementById("profile");
const cookies = document.getElementById("cookies");

fetch("api/me.json")
  .then((response) => response.json())
  .then((me) => {
    form.elements.name.value = me.name;
    form.elements.email.value = me.email;
  });

setTimeout(() => { cookies.hidden = false; }, 600);
document.getElementById("accept").addEventListener("click", () => { cookies.hidden = true; });
form.addEventListener("submit", (event) => event.preventDefault());
