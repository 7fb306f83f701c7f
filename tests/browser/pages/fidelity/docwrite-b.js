order.push("b");
