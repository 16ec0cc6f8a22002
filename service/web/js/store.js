// Everything a person enters lives in localStorage, written on every change, so a reload, a closed tab or a
// dropped connection loses nothing. One key per flow; a value that cannot be read starts that flow afresh.

const PREFIX = "gostop.";

export function load(name, fallback) {
  try {
    const text = localStorage.getItem(PREFIX + name);
    return text === null ? fallback() : JSON.parse(text);
  } catch {
    return fallback();
  }
}

export function save(name, value) {
  try {
    localStorage.setItem(PREFIX + name, JSON.stringify(value));
  } catch {
    // storage full or disabled: the page still works, it just cannot keep the entry across a reload
  }
}
