// The saved preferences load behind a short splash screen; tabs switch between the groups.
const tabs = [...document.querySelectorAll("[role=tab]")];

setTimeout(() => { document.getElementById("splash").hidden = true; }, 700);

for (const tab of tabs) {
  tab.addEventListener("click", () => {
    for (const other of tabs) {
      other.setAttribute("aria-selected", String(other === tab));
      document.getElementById(other.getAttribute("aria-controls")).hidden = other !== tab;
    }
  });
}

fetch("api/prefs.json")
  .then((response) => response.json())
  .then((prefs) => {
    document.getElementById("language").value = prefs.language;
    for (const [id, on] of Object.entries(prefs.notifications)) document.getElementById(id).checked = on;
  });
