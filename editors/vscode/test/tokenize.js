// Tokenizes rule files with the TextMate grammar, as VS Code does (vscode-textmate + vscode-oniguruma),
// and prints one JSON line per file: {"file", "lines", "tokens", "invalid": [[line, column, text]]}.
// Exit status 1 when a file has a token scoped `invalid` (text the grammar does not know).
// With --scopes first, each line also lists its tokens: "scopes": [[line, text, innermost scope]].
"use strict";

const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = path.join(__dirname, "..");
const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;

async function main(files) {
  await oniguruma.loadWASM(wasm);
  const registry = new vsctm.Registry({
    onigLib: Promise.resolve({
      createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
      createOnigString: (text) => new oniguruma.OnigString(text),
    }),
    loadGrammar: async (scopeName) => {
      if (scopeName !== "source.cards") return null;
      const file = path.join(here, "syntaxes", "cards.tmLanguage.json");
      return vsctm.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
    },
  });
  const grammar = await registry.loadGrammar("source.cards");
  let failed = false;
  for (const file of files) {
    const lines = fs.readFileSync(file, "utf8").split(/\r?\n/);
    let state = vsctm.INITIAL;
    let tokens = 0;
    const invalid = [];
    const scopes = [];
    lines.forEach((line, i) => {
      const result = grammar.tokenizeLine(line, state);
      for (const t of result.tokens) {
        tokens += 1;
        if (withScopes) scopes.push([i + 1, line.slice(t.startIndex, t.endIndex), t.scopes[t.scopes.length - 1]]);
        if (t.scopes.some((s) => s.startsWith("invalid"))) {
          invalid.push([i + 1, t.startIndex + 1, line.slice(t.startIndex, t.endIndex)]);
        }
      }
      state = result.ruleStack;
    });
    failed = failed || invalid.length > 0;
    console.log(JSON.stringify(withScopes ? { file, lines: lines.length, tokens, invalid, scopes }
      : { file, lines: lines.length, tokens, invalid }));
  }
  process.exit(failed ? 1 : 0);
}

const withScopes = process.argv[2] === "--scopes";
main(process.argv.slice(withScopes ? 3 : 2)).catch((error) => {
  console.error(error);
  process.exit(2);
});
