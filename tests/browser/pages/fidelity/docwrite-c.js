order.push("c sees " + (document.getElementById("last") ? "last" : "no last"));
