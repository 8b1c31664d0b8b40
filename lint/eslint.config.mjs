// ESLint for the pages' JavaScript (spielwerk/web/static): ES modules run by the browser as
// they are (no build step), checked by the recommended rules.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["**/*.js"],
    languageOptions: {
      ecmaVersion: 2022,
      sourceType: "module",
      globals: { ...globals.browser },
    },
  },
];
