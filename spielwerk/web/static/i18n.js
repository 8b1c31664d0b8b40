// The page shell's words in the reader's language. The language is the one chosen with the
// picker in the page header (kept in localStorage and a cookie), else the one the server chose
// from the browser's Accept-Language (<html lang>); its catalogue (/api/i18n/<lang>, from the
// gettext .po files) is loaded before the page's own module runs, so t() is synchronous.
// Static texts of the HTML carry their key: data-i18n (text), data-i18n-aria-label,
// data-i18n-placeholder, data-i18n-title.
const STORE = "spielwerk-lang";
const ATTRIBUTES = ["aria-label", "placeholder", "title"];

function stored() {
  try { return localStorage.getItem(STORE); } catch { return null; }
}

async function loadCatalogue(lang) {
  const response = await fetch(`/api/i18n/${encodeURIComponent(lang)}`);
  if (!response.ok) throw new Error(`no catalogue for ${lang}`);
  return response.json();
}

let catalogue;
try {
  catalogue = await loadCatalogue(stored() || document.documentElement.lang || "en");
} catch {
  catalogue = { lang: "en", languages: { en: "English" }, messages: {} };
}

/** The language the page speaks: "de" or "en". */
export const lang = catalogue.lang;

/** `key`'s text in the page's language with `{name}` placeholders filled from `params`. */
export function t(key, params = {}) {
  const text = catalogue.messages[key] ?? key;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/** Translate the static texts of `root` that carry a data-i18n key. */
export function translatePage(root = document) {
  for (const node of root.querySelectorAll("[data-i18n]")) node.textContent = t(node.dataset.i18n);
  for (const attribute of ATTRIBUTES) {
    for (const node of root.querySelectorAll(`[data-i18n-${attribute}]`)) {
      node.setAttribute(attribute, t(node.getAttribute(`data-i18n-${attribute}`)));
    }
  }
}

/** Keep `choice` as this browser's language and show the page in it. */
export function chooseLanguage(choice) {
  try { localStorage.setItem(STORE, choice); } catch { /* private mode: the cookie still works */ }
  document.cookie = `${STORE}=${encodeURIComponent(choice)}; path=/; max-age=31536000; SameSite=Lax`;
  location.reload();
}

/** The language picker at the end of the page header. */
function addPicker() {
  const header = document.querySelector("header.top");
  if (!header || document.getElementById("lang")) return;
  const select = document.createElement("select");
  select.id = "lang";
  select.className = "lang small";
  select.setAttribute("aria-label", t("lang.label"));
  for (const [code, name] of Object.entries(catalogue.languages)) {
    const option = document.createElement("option");
    option.value = code;
    option.lang = code;
    option.textContent = name;
    select.append(option);
  }
  select.value = lang;
  select.addEventListener("change", () => chooseLanguage(select.value));
  header.append(select);
}

document.documentElement.lang = lang;
translatePage();
addPicker();
// The page is shown once it speaks the reader's language (style.css hides it until then).
document.body.classList.remove("translating");
