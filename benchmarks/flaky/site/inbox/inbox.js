// The message list and the notification bell load side by side; a message opens in the reader.
const messages = document.getElementById("messages");
const reader = document.getElementById("reader");
const bell = document.getElementById("bell");

function open(message) {
  reader.querySelector("h2").textContent = message.subject;
  reader.querySelector(".from").textContent = `From ${message.from}`;
  reader.querySelector(".body").textContent = message.body;
  reader.hidden = false;
}

fetch("api/messages.json")
  .then((response) => response.json())
  .then((list) => {
    messages.replaceChildren(...list.map((message) => {
      const li = document.createElement("li");
      li.textContent = message.subject;
      li.addEventListener("click", () => open(message));
      return li;
    }));
  });

fetch("api/notifications.json")
  .then((response) => response.json())
  .then((notifications) => {
    const unread = notifications.filter((n) => !n.read).length;
    bell.querySelector(".badge").textContent = unread ? String(unread) : "";
    bell.setAttribute("aria-label", `${unread} unread notifications`);
  });
