// Signing in asks the server; on success the page greets the user, then moves on to the dashboard.
const form = document.getElementById("login");
const message = document.getElementById("message");
let user = null;

function route() {
  const onDashboard = location.hash === "#/dashboard" && user !== null;
  document.getElementById("sign-in").hidden = onDashboard;
  document.getElementById("dashboard").hidden = !onDashboard;
  if (onDashboard) document.getElementById("greeting").textContent = `Good to see you, ${user.name}.`;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  message.textContent = "Signing in…";
  const response = await fetch("api/session.json");
  user = await response.json();
  message.textContent = `Welcome back, ${user.name}! Taking you to your dashboard…`;
  setTimeout(() => { location.hash = "#/dashboard"; }, 250);
});

window.addEventListener("hashchange", route);
route();
