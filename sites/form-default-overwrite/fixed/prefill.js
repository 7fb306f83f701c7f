// Late script: fills in a default name.
// FIX: only when the field is still empty, so a name the user typed during load is kept.
var nameField = document.getElementById('name');
if (nameField.value === '') {
  nameField.value = 'Guest';
}
