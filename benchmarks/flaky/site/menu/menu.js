// The menu button opens and closes the navigation.
const toggle = document.getElementById("menu-toggle");
const nav = document.getElementById("nav");

toggle.addEventListener("click", () => {
  nav.hidden = !nav.hidden;
  toggle.setAttribute("aria-expanded", String(!nav.hidden));
});
