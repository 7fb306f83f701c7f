// A single-page documentation site: the part after '#/' names the page, fetched and shown on each change.
const article = document.getElementById("page");

async function show() {
  const slug = location.hash.startsWith("#/") ? location.hash.slice(2) : "install";
  for (const link of document.querySelectorAll("#toc a")) {
    if (link.getAttribute("href") === `#/${slug}`) link.setAttribute("aria-current", "page");
    else link.removeAttribute("aria-current");
  }
  const response = await fetch(`pages/${encodeURIComponent(slug)}.json`);
  const doc = await response.json();
  const title = document.createElement("h1");
  title.textContent = doc.title;
  const paragraphs = doc.paragraphs.map((text) => {
    const p = document.createElement("p");
    p.textContent = text;
    return p;
  });
  article.replaceChildren(title, ...paragraphs);
  document.title = `${doc.title} · Lighthouse docs`;
}

window.addEventListener("hashchange", show);
show();
