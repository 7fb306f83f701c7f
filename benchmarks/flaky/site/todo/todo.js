// The list comes from the server; new todos are added in the page.
const list = document.getElementById("todos");
const input = document.getElementById("new-todo");

function item(text) {
  const li = document.createElement("li");
  li.textContent = text;
  return li;
}

fetch("api/todos.json")
  .then((response) => response.json())
  .then((todos) => list.replaceChildren(...todos.map((todo) => item(todo.title))));

document.getElementById("new-form").addEventListener("submit", (event) => {
  event.preventDefault();
  if (input.value.trim() === "") return;
  list.append(item(input.value.trim()));
  input.value = "";
});
