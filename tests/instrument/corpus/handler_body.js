this.clicks++;
var local = event.type + ":" + this.id;
function helper() { return local.length; }
return local + "/" + helper() + "/" + typeof value
