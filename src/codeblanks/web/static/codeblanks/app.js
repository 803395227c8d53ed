// CodeBlanks' own page behaviour. Everything works without it; it only adds comfort:
//   Ctrl/Cmd+Enter in the lesson editor runs the program;
//   "Show line N in the editor" after an error moves the editor's cursor there;
//   "Go to the blank" (shown while the code has a ____ in it) selects the next blank;
//   after a run, the verdict down to its first feedback line (or the lesson-complete panel)
//   is scrolled into view, the verdict is read out (#run-announce), and a Run button that
//   sent it gets the focus back;
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

  // The new personal token: a copy button (shown only where the script runs), and the page's
  // address put back to the progress page, so a reload asks for the page and posts nothing.
  function setUpNewToken() {
    var line = document.querySelector(".new-token .token-line");
    if (!line) return;
    if (window.history && history.replaceState && line.dataset.page) {
      history.replaceState(null, "", line.dataset.page + "#tokens-head");
    }
    var button = line.querySelector("button.copy");
    if (button) button.hidden = false;
  }
  document.addEventListener("DOMContentLoaded", setUpNewToken);

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".token-line button.copy");
    var source = button && button.parentNode.querySelector(".token-text");
    if (!source) return;
    var text = source.textContent.trim();
    var status = button.parentNode.querySelector(".copy-status");
    function copied() {
      button.textContent = button.dataset.copied;
      if (status) status.textContent = button.dataset.copied;
    }
    function byHand() {  // no clipboard API (a page not served over https): select it instead
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      if (document.execCommand && document.execCommand("copy")) copied();
    }
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(text).then(copied, byHand);
    } else {
      byHand();
    }
  });

  // A match question's pick, in full under its select (a closed select cuts a long meaning).
  document.addEventListener("change", function (event) {
    var select = event.target;
    var row = select.closest && select.closest(".match-row");
    var picked = row && row.querySelector(".match-picked");
    if (!picked || select.tagName !== "SELECT") return;
    picked.textContent = select.value === "" ? "" : select.options[select.selectedIndex].text;
  });

  // Which button sent the run (null for Ctrl+Enter, whose focus stays in the editor): the
  // button is disabled while the run is out, which drops the focus to the page's body.
  var runSubmitter = null;
  document.addEventListener("submit", function (event) {
    if (event.target && event.target.id === "run-form") runSubmitter = event.submitter || null;
  }, true);

  function headerBottom() {
    var bar = document.querySelector("header.site");
    var box = bar && bar.getBoundingClientRect();
    return box && getComputedStyle(bar).position === "sticky" ? Math.max(box.bottom, 0) : 0;
  }

  // After a run, bring the news into view: the lesson-complete panel (with the next lesson)
  // when the run solved it, else the verdict down to its first feedback line. Only when part
  // of it is out of sight (phones, mostly).
  function showNews(result) {
    var done = document.querySelector("#lesson-flow .lesson-done");
    var news = done || result.querySelector(".verdict") || result;
    var last = done || result.querySelector(".verdict .feedback li") ||
      result.querySelector(".verdict > p:last-of-type") || news;
    var top = news.getBoundingClientRect().top;
    var bottom = last.getBoundingClientRect().bottom;
    var ceiling = headerBottom();
    if (top < ceiling || bottom > window.innerHeight) {
      var reduce = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      window.scrollTo({ top: window.scrollY + top - ceiling - 8, behavior: reduce ? "auto" : "smooth" });
    }
  }

  // The verdict in one short sentence for screen readers (the whole result, traceback and
  // all, would be too much to hear); emptied first, so the same verdict twice is read twice.
  function announce(result) {
    var region = document.getElementById("run-announce");
    var verdict = result.querySelector(".verdict");
    if (!region || !verdict) return;
    var parts = [];
    verdict.querySelectorAll(".verdict-title, .verdict > p").forEach(function (p) {
      parts.push(p.textContent.replace(/\s+/g, " ").trim());
    });
    region.textContent = "";
    setTimeout(function () { region.textContent = parts.join(" "); }, 50);
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || target.id !== "result") return;
    var lost = !document.activeElement || document.activeElement === document.body;
    if (runSubmitter && lost && runSubmitter.isConnected && !runSubmitter.disabled) {
      runSubmitter.focus({ preventScroll: true });
    }
    runSubmitter = null;
    announce(target);
    showNews(target);
  });
})();
