order.push("a"); document.write("<script src=\"docwrite-a2.js\"><\/script>"); order.push("after writing a2");
