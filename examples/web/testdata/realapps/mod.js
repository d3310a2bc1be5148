// One module of modules.html: the next one is requested from a timer, as a
// module loader does; the 40th binds the field.
(function () {
  const n = Number(document.currentScript.src.split('?')[1]);
  if (n < 40) { setTimeout(() => loadModule(n + 1), 4); return; }
  const field = document.getElementById('new-todo');
  field.addEventListener('keydown', (e) => {
    if (e.key !== 'Enter' || !field.value.trim()) return;
    const li = document.createElement('li');
    li.textContent = field.value.trim();
    document.getElementById('list').append(li);
    field.value = '';
  });
})();
