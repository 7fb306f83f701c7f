const store = { count: 0 };

export function add(n) {
  store.count = n;
}
