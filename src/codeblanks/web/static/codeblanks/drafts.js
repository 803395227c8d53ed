// Drafts (web/learner/drafts.py): what the learner types in a lesson's editor is never lost.
//   Every change is written to localStorage at once; for a signed-in learner it is also sent to
//   the server (PUT <data-draft-url>, with the page's CSRF token) 1.5 s after the typing stops,
//   at most 5 s after the first unsent change, and at once when the page is hidden or left.
//   On load, a draft in this browser newer than what the server shows (data-saved-at) wins and
//   goes to the server; an older one is dropped. A draft is never run or graded: a Run (or
//   "Reset to starter") makes it the saved code and clears it here.
//   A draft over data-draft-max-bytes (UTF-8) is kept nowhere, and the editor says so.
(function () {
  "use strict";

  var QUIET_MS = 1500, LONGEST_MS = 5000;

  function bytes(text) {
    return new TextEncoder().encode(text).length;
  }

  function readLocal(key) {
    try {
      var found = JSON.parse(localStorage.getItem(key) || "null");
      return found && typeof found.code === "string" && typeof found.at === "number" ? found : null;
    } catch (e) {
      return null;
    }
  }

  function writeLocal(key, record) {
    try {
      if (record) localStorage.setItem(key, JSON.stringify(record));
      else localStorage.removeItem(key);
    } catch (e) { /* storage full or refused: the server copy still goes */ }
  }

  function csrfToken() {
    var field = document.querySelector("#run-form input[name=csrfmiddlewaretoken]");
    return field ? field.value : "";
  }

  function Draft(textarea, editor) {
    this.area = textarea;
    this.editor = editor;
    this.key = textarea.dataset.draftKey;
    this.url = textarea.dataset.draftUrl || "";
    this.maxBytes = parseInt(textarea.dataset.draftMaxBytes, 10) || Infinity;
    this.state = textarea.closest(".editor-frame").querySelector(".draft-state");
    this.text = editor.getValue();
    this.timer = null;
    this.firstUnsent = 0;
    this.unsent = false;
    var serverAt = parseInt(textarea.dataset.savedAt || "0", 10) || 0;
    var local = readLocal(this.key);
    if (local && local.at > serverAt && local.code !== this.text) {
      this.text = local.code;
      editor.setValue(local.code);
      this.show(this.url ? "unsaved" : "local");
      this.unsent = !!this.url;
      this.schedule();
    } else {
      if (local && local.at <= serverAt) writeLocal(this.key, null);
      if (textarea.dataset.draft === "1") this.show("saved");
    }
  }

  Draft.prototype.show = function (how, message) {
    if (!this.state) return;
    var note = this.state.querySelector(".draft-note");
    this.state.hidden = how === "none";
    this.state.classList.toggle("draft-refused", how === "refused");
    this.state.dataset.how = how;
    if (note) {
      note.textContent = how === "refused" ? message
        : how === "saved" ? this.state.dataset.saved : this.state.dataset.unsaved;
    }
  };

  Draft.prototype.changed = function () {
    var text = this.editor.getValue();
    if (text === this.text) return;
    this.text = text;
    var size = bytes(text);
    if (size > this.maxBytes) {
      this.cancel();
      writeLocal(this.key, null);
      this.show("refused", (this.state && this.state.dataset.tooLarge || "")
        .replace("{size}", size).replace("{limit}", this.maxBytes));
      return;
    }
    writeLocal(this.key, { code: text, at: Date.now() });
    this.show(this.url ? "unsaved" : "local");
    if (!this.url) return;
    if (!this.unsent) this.firstUnsent = Date.now();
    this.unsent = true;
    this.schedule();
  };

  Draft.prototype.schedule = function () {
    if (!this.url || !this.unsent) return;
    clearTimeout(this.timer);
    var wait = Math.min(QUIET_MS, Math.max(0, this.firstUnsent + LONGEST_MS - Date.now()));
    var self = this;
    this.timer = setTimeout(function () { self.send(false); }, wait);
  };

  Draft.prototype.cancel = function () {
    clearTimeout(this.timer);
    this.timer = null;
    this.unsent = false;
  };

  Draft.prototype.send = function (leaving) {
    if (!this.url || !this.unsent) return;
    this.cancel();
    var text = this.text, self = this;
    var body = JSON.stringify({ code: text });
    fetch(this.url, {
      method: "PUT",
      credentials: "same-origin",
      keepalive: leaving && body.length < 60000,  // browsers cap keepalive bodies at 64 KiB
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: body,
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (text !== self.text) return;  // typed on meanwhile: that change is on its way
        if (response.ok) self.show("saved");
        else self.show("refused", answer.message || response.statusText);
      });
    }, function () {  // offline: this browser keeps it; the next change or load sends it
      if (text === self.text) self.show("unsaved");
    });
  };

  // The program a Run sent is kept as the lesson's code now: no draft of it is left, unless
  // the learner typed on while it ran (then what they typed is the draft).
  Draft.prototype.ran = function (sent) {
    if (this.editor.getValue() !== sent) {
      this.unsent = !!this.url;
      this.firstUnsent = Date.now();
      this.schedule();
      return;
    }
    this.cancel();
    this.text = sent;
    writeLocal(this.key, null);
    this.show("none");
  };

  var current = null;

  function setUp() {
    var area = document.querySelector("#run-form textarea[data-draft-key]");
    if (!area || area.cbDraft || !window.CodeBlanksEditor) return;
    if (current) current.cancel();
    var editor = area.cbEditor || window.CodeBlanksEditor.fromTextarea(area);
    current = area.cbDraft = new Draft(area, editor);
    var content = area.parentNode.querySelector(".cm-content");
    if (content && window.MutationObserver) {  // every change to the text, typed or pasted
      new MutationObserver(function () { if (current) current.changed(); })
        .observe(content, { childList: true, subtree: true, characterData: true });
    }
  }

  document.addEventListener("DOMContentLoaded", setUp);
  document.addEventListener("htmx:load", setUp);
  ["input", "keyup", "paste", "cut", "drop"].forEach(function (name) {
    document.addEventListener(name, function (event) {
      if (current && event.target.closest && event.target.closest("#run-form")) current.changed();
    });
  });

  // A Run keeps the program on the server (unless refused: then the draft stays); a reset
  // forgets the code, the draft with it (its new editor says when, data-saved-at).
  var sent = null;
  document.addEventListener("htmx:beforeRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (!current || !form) return;
    if (form.id === "run-form") {
      current.cancel();
      sent = current.editor.getValue();
    } else if (form.id === "reset-form") {
      current.cancel();
      writeLocal(current.key, null);
      current = null;
    }
  });
  document.addEventListener("htmx:afterRequest", function (event) {
    var form = event.detail && event.detail.elt;
    if (current && form && form.id === "run-form" && event.detail.successful && sent !== null) {
      current.ran(sent);
    }
    if (form && form.id === "run-form") sent = null;
  });

  function leaving() { if (current) current.send(true); }
  window.addEventListener("pagehide", leaving);
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "hidden") leaving();
  });
})();
