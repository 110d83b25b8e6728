// The site's fixes to Django's admin pages, loaded by core/templates/admin/base_site.html.
//
// The two-box permission and group pickers (Django's SelectFilter) draw a magnifier and a
// help icon as spans named by aria-label; a name on a span with no role is not read out
// (axe: aria-prohibited-attr). Django builds the pickers when the page has loaded: give
// each of those spans the role of a picture then, so that its name counts.
window.addEventListener("load", () => {
  setTimeout(() => {
    for (const icon of document.querySelectorAll("span.help-tooltip[aria-label]:not([role])")) {
      icon.setAttribute("role", "img");
    }
  }, 0);
});
