// CodeBlanks' own page behaviour. Everything works without it; it only adds comfort:
//   Ctrl/Cmd+Enter in the lesson editor runs the program;
//   "Show line N in the editor" after an error moves the editor's cursor there;
//   "Go to the blank" (shown while the code has a ____ in it) selects the next blank;
//   after a run, the result (or the lesson-complete panel) is scrolled into view;
//   after checking an answer, focus moves to the verdict, so screen readers read it out
//   (the question is replaced as a whole, and a live region that is new is not announced).
// The editor itself (CodeMirror) upgrades <textarea data-codeblanks-editor> on its own
// (vendor/codemirror.bundle.js), also in content swapped in by htmx.
(function () {
  "use strict";

  function editorOf(form) {
    var area = form && form.querySelector("textarea[name=code]");
    return area && area.cbEditor;
  }

  // Listened for in the capture phase and stopped there: the editor's own Mod-Enter binding
  // (insert a blank line) must never see the key, or every run would add a line to the code.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter" || !(event.ctrlKey || event.metaKey)) return;
    var form = event.target.closest && event.target.closest("#run-form");
    if (!form) return;
    event.preventDefault();
    event.stopPropagation();
    if (form.requestSubmit) form.requestSubmit(); else form.submit();
  }, true);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".goto-line");
    if (!button) return;
    var editor = editorOf(document.getElementById("run-form"));
    var n = parseInt(button.getAttribute("data-line"), 10);
    if (!editor || !editor.view || !(n > 0)) return;
    var doc = editor.view.state.doc;
    var line = doc.line(Math.min(n, doc.lines));
    editor.view.dispatch({ selection: { anchor: line.from, head: line.to }, scrollIntoView: true });
    editor.focus();
  });

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".goto-blank");
    var editor = button && editorOf(document.getElementById("run-form"));
    if (editor && editor.nextBlank) editor.nextBlank();
  });

  // The button is there only while there is a blank to go to.
  function showBlankButton() {
    var form = document.getElementById("run-form");
    var button = form && form.querySelector(".goto-blank");
    var editor = editorOf(form);
    if (button && editor && editor.blankCount) button.hidden = editor.blankCount() === 0;
  }
  document.addEventListener("DOMContentLoaded", showBlankButton);
  document.addEventListener("htmx:afterSettle", showBlankButton);
  document.addEventListener("input", showBlankButton);
  document.addEventListener("keyup", showBlankButton);

  document.addEventListener("htmx:afterSettle", function (event) {
    var old = event.detail && event.detail.target;
    if (!old || !old.id || old.id.indexOf("q-") !== 0) return;
    var feedback = document.querySelector("#" + CSS.escape(old.id) + " .q-feedback > p");
    if (!feedback) return;
    feedback.setAttribute("tabindex", "-1");
    feedback.focus();
  });

  // After a run, bring the news into view: the lesson-complete panel (with the next lesson)
  // when the run solved it, else the result. Only when it is out of sight (phones, mostly).
  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "result") return;
    var news = document.querySelector("#lesson-flow .lesson-done") || target;
    var box = news.getBoundingClientRect();
    if (box.top < 0 || box.top > window.innerHeight - 80) {
      news.scrollIntoView({ behavior: "smooth", block: "start" });
    }
  });
})();
