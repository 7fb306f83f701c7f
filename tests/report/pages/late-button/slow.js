window.stock = 3;
