// CodeBlanks: typeset the math in lesson text with KaTeX.
// Copied unchanged by build.sh to static/codeblanks/vendor/math.js.
// Load it after katex/katex.min.js (both with `defer`, in that order).
//
// The server renders Markdown with mdit-py-plugins' dollarmath plugin,
// which does not typeset anything: it leaves the TeX source, HTML-escaped,
// in these elements:
//   $a$             -> <span class="math inline">a</span>     (inline)
//   $$a$$ in text   -> <div class="math inline">a</div>        (display; double_inline only)
//   $$ a $$ block   -> <div class="math block">a</div>          (display)
//   $$a$$ (eq1)     -> <div id="eq1" class="math block"><a class="mathlabel" ...>(pilcrow)</a> a</div>
// With a custom `renderer` the TeX may arrive wrapped in \(...\) or \[...\];
// those delimiters are removed.  The tag decides the mode (span = inline,
// div = display).  Only these elements inside a `.prose` container are
// touched; there is no dollar-sign guessing.
(function () {
  "use strict";

  var SELECTOR = ".prose .math";

  function texOf(el) {
    // Everything except the permalink anchor of a labelled equation.
    var parts = [];
    el.childNodes.forEach(function (node) {
      if (node.nodeType === 1 && node.classList.contains("mathlabel")) return;
      parts.push(node.textContent);
    });
    var tex = parts.join("").trim();
    // A custom server-side renderer may already wrap the TeX in \( \) or
    // \[ \] (for auto-render); the element says the mode, so drop them.
    var m = /^\\\(([\s\S]*)\\\)$/.exec(tex) || /^\\\[([\s\S]*)\\\]$/.exec(tex);
    return m ? m[1].trim() : tex;
  }

  function typeset(el) {
    if (el.hasAttribute("data-math-rendered")) return;
    var tex = texOf(el);
    var display = el.tagName !== "SPAN";
    var label = el.querySelector(":scope > a.mathlabel");
    var target = document.createElement(display ? "div" : "span");
    target.className = "math-rendered";
    window.katex.render(tex, target, {
      displayMode: display,
      throwOnError: false,
      output: "htmlAndMathml",
    });
    el.textContent = "";
    if (label) el.appendChild(label); // keep the permalink where it was
    el.appendChild(target);
    el.setAttribute("data-math-rendered", "");
    el.setAttribute("data-tex", tex);
  }

  function renderWithin(root) {
    if (!window.katex || !root || typeof root.querySelectorAll !== "function") return;
    var found = Array.prototype.slice.call(root.querySelectorAll(SELECTOR));
    if (root.matches && root.matches(".math") && root.closest(".prose")) found.unshift(root);
    found.forEach(function (el) {
      try {
        typeset(el);
      } catch (err) {
        // throwOnError:false already shows bad TeX in red; this only
        // guards against anything unexpected so one formula cannot stop
        // the rest of the page.
        if (window.console) console.error("math.js:", err);
      }
    });
  }

  window.CodeBlanksMath = { renderWithin: renderWithin };

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", function () {
      renderWithin(document);
    });
  } else {
    renderWithin(document);
  }
  // Lesson text swapped in by htmx 2.
  document.addEventListener("htmx:load", function (event) {
    renderWithin(event.target);
  });
})();
