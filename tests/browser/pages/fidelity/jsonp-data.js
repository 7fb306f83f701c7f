show({name: "Ada"});
