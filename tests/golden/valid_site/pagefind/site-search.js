(function () {
  var box = document.getElementById("search");
  if (!window.PagefindUI || !box) return;
  var bundles = ["/pagefind/"];
  new PagefindUI({element: box, bundlePath: bundles[0], showSubResults: false, showImages: false,
                  mergeIndex: bundles.slice(1).map(function (path) { return {bundlePath: path}; }),
                  translations: {placeholder: box.dataset.label}});
  var input = box.querySelector(".pagefind-ui__search-input");
  if (input) input.setAttribute("aria-label", box.dataset.label);
})();
