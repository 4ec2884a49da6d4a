# queueput feeds a queuetake of its own process instance
define process name=a { thread name=gpu,accelerator=90 {
  flowop queuetake name=batch,value=4,depth=8
  flowop compute name=step,value=1000 } }
define process name=b { thread name=loader {
  flowop queueput name=put,target=batch
  flowop queueput name=wrong,target=put
  flowop queueput name=bare } }
run 1
