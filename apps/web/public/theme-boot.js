(function () {
  var mode = null;
  try {
    mode = localStorage.getItem('theme-mode');
  } catch {
    // Storage blocked: follow the system.
  }
  var dark = mode === 'dark' || (mode !== 'light' && matchMedia('(prefers-color-scheme: dark)').matches);
  document.documentElement.setAttribute('data-theme', dark ? 'dark' : 'light');
  document.documentElement.style.colorScheme = dark ? 'dark' : 'light';
})();
