// Posting a comment: Post adds it to the list under the reader's name.
const list = document.getElementById("comments");
const box = document.getElementById("new-comment");

document.getElementById("post").addEventListener("click", () => {
  const text = box.value.trim();
  if (text === "") return;
  const li = document.createElement("li");
  li.className = "comment card";
  const author = document.createElement("strong");
  author.textContent = "You";
  const body = document.createElement("p");
  body.textContent = text;
  li.append(author, body);
  list.append(li);
  box.value = "";
});
