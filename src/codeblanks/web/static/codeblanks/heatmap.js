/* Heatmaps (web/pages/heatmap.py): the value of the cell under the pointer, or of the cell chosen with
   the arrow keys while the figure has focus, in the figure's readout. One listener per event on
   the document, so pictures swapped in by htmx work too. */
(function () {
  "use strict";
  function cells(figure) { return Array.prototype.slice.call(figure.querySelectorAll("g.cell")); }
  function choose(figure, cell) {
    if (!cell) return;
    cells(figure).forEach(function (c) { c.classList.remove("current"); });
    cell.classList.add("current");
    var readout = figure.querySelector(".heatmap-readout");
    if (readout) readout.textContent = cell.getAttribute("data-value");
  }
  function at(figure, row, col) {
    return figure.querySelector('g.cell[data-row="' + row + '"][data-col="' + col + '"]');
  }
  document.addEventListener("mouseover", function (event) {
    var cell = event.target.closest && event.target.closest("figure.heatmap g.cell");
    if (cell) choose(cell.closest("figure.heatmap"), cell);
  });
  document.addEventListener("focusin", function (event) {
    var figure = event.target.closest && event.target.closest("figure.heatmap");
    if (figure && !figure.querySelector("g.cell.current")) choose(figure, at(figure, 0, 0));
  });
  var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
  document.addEventListener("keydown", function (event) {
    var figure = event.target.matches && event.target.matches("figure.heatmap") ? event.target : null;
    var move = moves[event.key];
    if (!figure || !move) return;
    var current = figure.querySelector("g.cell.current") || at(figure, 0, 0);
    if (!current) return;
    event.preventDefault();
    var row = Number(current.getAttribute("data-row")) + move[0];
    var col = Number(current.getAttribute("data-col")) + move[1];
    choose(figure, at(figure, row, col) || current);
  });
})();
