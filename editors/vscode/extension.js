// The VS Code client of cardlang: colours come from syntaxes/cards.tmLanguage.json; everything else
// (errors as you type, hover, go to definition, references, rename, completion, outline, folding,
// quick fixes) from `cardlang lsp`, started over stdio. See docs/editors.md.
"use strict";

const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const [command, ...args] = vscode.workspace.getConfiguration("cardlang").get("server.command", ["cardlang", "lsp"]);
  client = new LanguageClient(
    "cardlang",
    "cardlang",
    { command, args },
    { documentSelector: [{ scheme: "file", language: "cards" }] },
  );
  context.subscriptions.push(client);
  return client.start().catch((error) => {
    vscode.window.showErrorMessage(
      `cardlang: could not start \`${command} ${args.join(" ")}\` (${error.message}). ` +
        "Install it with pip install 'cardlang[lsp]', or set cardlang.server.command.",
    );
  });
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
