order.push("a2 sees " + (document.getElementById("first") ? "first" : "no first"));
