// Late script: fills in a default name. It does not check whether the user has
// already typed something, so it overwrites early input (the race is on #name.value).
document.getElementById('name').value = 'Guest';
