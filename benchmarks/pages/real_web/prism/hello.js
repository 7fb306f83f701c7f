function hello(name) {
  return "Hello, " + name;
}
