var captured = true;
