// CodeBlanks code editor: the entry point esbuild turns into
// src/codeblanks/web/static/codeblanks/vendor/codemirror.bundle.js
// (one minified classic script that sets window.CodeBlanksEditor).
//
// Public API (templates and browser tests rely on it; keep it stable):
//   CodeBlanksEditor.create(parent, {doc, filename, onChange, label, blankTitle})
//       -> {getValue(), setValue(text), focus(), nextBlank(), blankCount(), view}
//   CodeBlanksEditor.fromTextarea(textarea, {filename, label})
//       -> the same kind of object; the textarea is hidden, kept in sync,
//          and the object is stored as textarea.cbEditor and parent.cbEditor.
// Textareas carrying a `data-codeblanks-editor` attribute are upgraded
// automatically on page load and after every htmx swap (htmx:load).

import { EditorView, minimalSetup } from "codemirror";
import { Compartment, EditorSelection, EditorState, Prec } from "@codemirror/state";
import {
  Decoration,
  MatchDecorator,
  ViewPlugin,
  crosshairCursor,
  dropCursor,
  highlightActiveLine,
  highlightActiveLineGutter,
  keymap,
  lineNumbers,
  rectangularSelection,
} from "@codemirror/view";
import { indentWithTab } from "@codemirror/commands";
import {
  bracketMatching,
  defaultHighlightStyle,
  HighlightStyle,
  indentOnInput,
  indentUnit,
  syntaxHighlighting,
} from "@codemirror/language";
import { closeBrackets, closeBracketsKeymap } from "@codemirror/autocomplete";
import { highlightSelectionMatches, searchKeymap, searchPanelOpen } from "@codemirror/search";
import { python } from "@codemirror/lang-python";
import { oneDark } from "@codemirror/theme-one-dark";

// ---------------------------------------------------------------- themes

// Layout shared by both colour schemes.  Sizes are in em so the editor
// follows the page's font size; the outer height is left to the page CSS
// (set a height or max-height on .cb-editor if a fixed box is wanted).
const layout = EditorView.theme({
  "&": {
    fontSize: "0.95em",
    border: "1px solid var(--cb-editor-border, #b8bec6)",
    borderRadius: "4px",
  },
  "&.cm-focused": {
    outline: "2px solid var(--cb-editor-focus, #2563eb)",
    outlineOffset: "1px",
  },
  ".cm-scroller": {
    fontFamily:
      'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace',
    lineHeight: "1.5",
    minHeight: "6em",
  },
  ".cm-content": { padding: "0.4em 0" },
  ".cb-blank": { borderRadius: "3px", outlineWidth: "2px", outlineStyle: "dashed" },
});

// CodeMirror's default syntax colours, except two that stay under 4.5:1 on white and on the
// active line (WCAG AA): #e40 (escapes such as "\n", regexps) is 3.8:1, #f00 (invalid) 4.0:1.
// Darker shades of the same hues pass on both.
const AA_COLOURS = { "#e40": "#c03000", "#f00": "#d00000" };
const lightHighlight = HighlightStyle.define(
  defaultHighlightStyle.specs.map((spec) =>
    spec.color in AA_COLOURS ? { ...spec, color: AA_COLOURS[spec.color] } : spec,
  ),
);

// Light scheme: CodeMirror's own base colours with a slightly stronger
// active-line and gutter so the current line is visible on white.
const lightTheme = EditorView.theme(
  {
    "&": { backgroundColor: "#ffffff", color: "#1f2328" },
    ".cm-gutters": {
      backgroundColor: "#f6f8fa",
      color: "#57606a", // 4.5:1 or more on the gutter (WCAG AA), also on the active line
      borderRight: "1px solid #d0d7de",
    },
    ".cm-activeLine": { backgroundColor: "#eef4ff" },
    ".cm-activeLineGutter": { backgroundColor: "#dde7f7", color: "#1f2328" },
    "&.cm-focused .cm-matchingBracket": { backgroundColor: "#c8e1c8" },
    ".cb-blank": { backgroundColor: "#fff1c2", outlineColor: "#9a5b00", color: "#5c3600" },
  },
  { dark: false },
);
const light = [lightTheme, syntaxHighlighting(lightHighlight)];

// Dark scheme: the One Dark theme (colours plus syntax highlighting).
// Our changes to it take precedence over its own rules (Prec.highest).
const dark = [
  oneDark,
  Prec.highest(EditorView.theme(
    {
      // One Dark's own background leaves its comment grey, red and violet under 4.5:1
      // (WCAG AA); on a darker one (the page's dark surface) every colour passes.
      "&": { borderColor: "var(--cb-editor-border, #4b5263)", backgroundColor: "#181b24" },
      ".cm-gutters": { backgroundColor: "#181b24", color: "#9da5b4" },
      ".cm-activeLine": { backgroundColor: "#1b1e27" },
      ".cm-activeLineGutter": { backgroundColor: "#1b1e27" },
      ".cb-blank": { backgroundColor: "#4a3a12", outlineColor: "#f2c15b", color: "#ffe3a3" },
    },
    { dark: true },
  )),
];

const darkQuery =
  typeof window.matchMedia === "function"
    ? window.matchMedia("(prefers-color-scheme: dark)")
    : null;

function schemeExtension() {
  return darkQuery && darkQuery.matches ? dark : light;
}

// Every live editor, so one media-query listener can restyle them all
// when the operating system switches between light and dark.
const liveEditors = new Set();
const themeSlot = new Compartment();

// Narrow screens (a phone) wrap long lines instead of panning the editor sideways (the
// learner trial's F10); wider ones keep one code line per screen line.
const narrowQuery =
  typeof window.matchMedia === "function" ? window.matchMedia("(max-width: 40rem)") : null;
const wrapSlot = new Compartment();

function wrapExtension() {
  return narrowQuery && narrowQuery.matches ? EditorView.lineWrapping : [];
}

function followWidth() {
  const wrap = wrapExtension();
  for (const view of liveEditors) {
    if (view.dom.isConnected) view.dispatch({ effects: wrapSlot.reconfigure(wrap) });
  }
}

if (narrowQuery && typeof narrowQuery.addEventListener === "function") {
  narrowQuery.addEventListener("change", followWidth);
}

function followColourScheme() {
  const scheme = schemeExtension();
  for (const view of liveEditors) {
    if (!view.dom.isConnected) {
      liveEditors.delete(view);
      continue;
    }
    view.dispatch({ effects: themeSlot.reconfigure(scheme) });
  }
}

if (darkQuery) {
  if (typeof darkQuery.addEventListener === "function") {
    darkQuery.addEventListener("change", followColourScheme);
  } else if (typeof darkQuery.addListener === "function") {
    darkQuery.addListener(followColourScheme); // older Safari
  }
}

// ---------------------------------------------------------------- blanks

// A blank is `____` (four underscores) that is not part of a longer name: the place the
// learner fills in. Each one is marked in the text, and Alt-J (or the page's "Go to the
// blank" button, through editor.nextBlank()) selects the next one after the cursor.
const BLANK = /(?<![A-Za-z0-9_])____(?![A-Za-z0-9_])/g;

// `title` is the blank's tooltip, in the page's language (the textarea's data-blank-title).
function blankHighlighter(title) {
  const mark = Decoration.mark({ class: "cb-blank", attributes: { title } });
  const blankMarks = new MatchDecorator({
    regexp: BLANK,
    // a `____` in a comment ("replace each ____") is the starter's instruction, not a blank
    decorate(add, from, to, match, view) {
      if (!inComment(view.state.doc, from)) add(from, to, mark);
    },
  });
  return ViewPlugin.fromClass(
    class {
      constructor(view) {
        this.decorations = blankMarks.createDeco(view);
      }
      update(update) {
        this.decorations = blankMarks.updateDeco(update, this.decorations);
      }
    },
    { decorations: (plugin) => plugin.decorations },
  );
}

// Where the line's comment starts (the first `#` outside a string), or -1. Strings are
// followed only within the line: enough for the starters' `# ... ____ ...` instructions.
function commentStart(text) {
  let quote = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === "\\") i++;
      else if (c === quote) quote = "";
    } else if (c === "'" || c === '"') quote = c;
    else if (c === "#") return i;
  }
  return -1;
}

function inComment(doc, pos) {
  const line = doc.lineAt(pos);
  const start = commentStart(line.text);
  return start >= 0 && pos - line.from > start;
}

// The blanks the learner fills in: every `____` except those inside comments.
function blankRanges(state) {
  const text = state.doc.toString();
  const found = [];
  for (const m of text.matchAll(BLANK)) {
    if (!inComment(state.doc, m.index)) found.push({ from: m.index, to: m.index + m[0].length });
  }
  return found;
}

// Escape collapses a selection (say the blank Alt-J selected) AND arms "Tab leaves the
// editor" at once: without this, the first Escape only collapsed it and the Tab after it
// indented the line, so keyboard users needed two presses.
function escapeToLeave(view) {
  if (searchPanelOpen(view.state)) return false; // Escape closes the search panel first
  const sel = view.state.selection;
  if (sel.ranges.length > 1 || !sel.main.empty) {
    view.dispatch({ selection: EditorSelection.cursor(sel.main.head) });
  }
  view.setTabFocusMode(2000);
  return true;
}

// Selects the first blank after the selection (wrapping round); false when there is none.
function selectNextBlank(view) {
  const ranges = blankRanges(view.state);
  if (!ranges.length) return false;
  const after = view.state.selection.main.to;
  const target = ranges.find((r) => r.from >= after) || ranges[0];
  view.dispatch({
    selection: { anchor: target.from, head: target.to },
    scrollIntoView: true,
  });
  return true;
}

// ---------------------------------------------------------------- editor

function editorExtensions(label, onChange, blankTitle) {
  return [
    // history, undo/redo keys, default keymap, special characters,
    // drawn selection and fallback syntax highlighting
    minimalSetup,
    lineNumbers(),
    highlightActiveLineGutter(),
    highlightActiveLine(),
    dropCursor(),
    EditorState.allowMultipleSelections.of(true),
    rectangularSelection(),
    crosshairCursor(),
    indentOnInput(),
    bracketMatching(),
    closeBrackets(),
    highlightSelectionMatches(),
    indentUnit.of("    "),
    EditorState.tabSize.of(4),
    // Tab indents.  CodeMirror's own escape hatch applies: pressing Escape
    // and then Tab (or toggling with Ctrl-M / Shift-Alt-M on macOS) moves
    // focus out of the editor, so keyboard users are never trapped.
    Prec.high(keymap.of([{ key: "Escape", run: escapeToLeave }])),
    keymap.of([
      { key: "Alt-j", run: selectNextBlank },
      ...closeBracketsKeymap,
      ...searchKeymap,
      indentWithTab,
    ]),
    blankHighlighter(blankTitle || "Fill this in"),
    python(),
    layout,
    themeSlot.of(schemeExtension()),
    wrapSlot.of(wrapExtension()),
    EditorView.contentAttributes.of({
      "aria-label": label,
      "aria-multiline": "true",
      // (contenteditable is focusable anyway; saying so lets checkers such as axe-core see
      // that the scrolling editor can be reached by keyboard)
      tabindex: "0",
      spellcheck: "false",
      autocorrect: "off",
      autocapitalize: "off",
    }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged && onChange) {
        onChange(update.state.doc.toString());
      }
    }),
  ];
}

function labelFor(filename, label) {
  if (label) return String(label);
  if (filename) return "Code editor for " + filename;
  return "Code editor";
}

function create(parent, options) {
  if (!parent || typeof parent.appendChild !== "function") {
    throw new TypeError("CodeBlanksEditor.create needs a parent element");
  }
  const opts = options || {};
  const onChange = typeof opts.onChange === "function" ? opts.onChange : null;
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: opts.doc == null ? "" : String(opts.doc),
      extensions: editorExtensions(labelFor(opts.filename, opts.label), onChange, opts.blankTitle),
    }),
  });
  liveEditors.add(view);

  const editor = {
    view,
    getValue() {
      return view.state.doc.toString();
    },
    setValue(text) {
      const value = text == null ? "" : String(text);
      view.dispatch({
        changes: { from: 0, to: view.state.doc.length, insert: value },
        selection: { anchor: 0 },
      });
    },
    focus() {
      view.focus();
    },
    // Selects the next blank and focuses the editor; false when the code has none left.
    nextBlank() {
      const moved = selectNextBlank(view);
      if (moved) view.focus();
      return moved;
    },
    blankCount() {
      return blankRanges(view.state).length;
    },
  };
  parent.cbEditor = editor;
  return editor;
}

function fromTextarea(textarea, options) {
  if (!textarea || textarea.tagName !== "TEXTAREA") {
    throw new TypeError("CodeBlanksEditor.fromTextarea needs a <textarea>");
  }
  // Calling twice (for instance after an htmx swap that kept the element)
  // returns the editor that already exists.
  if (textarea.cbEditor) return textarea.cbEditor;

  const opts = options || {};
  const filename = opts.filename || textarea.dataset.filename || "";
  const label = opts.label || textarea.getAttribute("aria-label") || "";
  const blankTitle = opts.blankTitle || textarea.dataset.blankTitle || "";

  const parent = document.createElement("div");
  parent.className = "cb-editor";
  if (filename) parent.dataset.filename = filename;
  textarea.insertAdjacentElement("afterend", parent);

  const editor = create(parent, {
    doc: textarea.value,
    filename,
    label,
    blankTitle,
    onChange(text) {
      textarea.value = text;
      if (typeof opts.onChange === "function") opts.onChange(text);
    },
  });

  // The textarea stays in the form (so a normal submit or hx-include still
  // posts the code) but is no longer shown or reachable by keyboard.
  textarea.hidden = true;
  textarea.style.display = "none";
  textarea.setAttribute("aria-hidden", "true");
  textarea.tabIndex = -1;
  // A visible <label for="..."> should lead to the editor instead.
  if (textarea.id) {
    const labels = textarea.labels ? Array.from(textarea.labels) : [];
    for (const el of labels) {
      el.addEventListener("click", (event) => {
        event.preventDefault();
        editor.focus();
      });
    }
  }

  textarea.cbEditor = editor;
  return editor;
}

// ------------------------------------------------------ automatic upgrade

function upgradeWithin(root) {
  if (!root || typeof root.querySelectorAll !== "function") return;
  const found = [];
  if (root.matches && root.matches("textarea[data-codeblanks-editor]")) found.push(root);
  found.push(...root.querySelectorAll("textarea[data-codeblanks-editor]"));
  for (const textarea of found) {
    if (!textarea.cbEditor) fromTextarea(textarea);
  }
}

if (document.readyState === "loading") {
  document.addEventListener("DOMContentLoaded", () => upgradeWithin(document));
} else {
  upgradeWithin(document);
}
// htmx 2 fires htmx:load on every element it adds to the page.
document.addEventListener("htmx:load", (event) => upgradeWithin(event.target));

window.CodeBlanksEditor = { create, fromTextarea, upgradeWithin };
