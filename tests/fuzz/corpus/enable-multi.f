enable multi master=host1,client=c1
