// The deep-linking answer goes back to the LMS at once, as the LMS's dialog expects; the
// page's button does the same without JavaScript.
document.getElementById("lti-return")?.submit();
