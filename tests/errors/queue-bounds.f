# a take or a put of more items than the queue holds would wait for ever;
# a depth of 0 holds nothing
define process name=p { thread name=loader {
  flowop queueput name=put,target=batch,value=9 }
  thread name=gpu,accelerator=90 {
  flowop queuetake name=batch,value=16,depth=8
  flowop compute name=step,value=1000 }
  thread name=other {
  flowop queuetake name=none,depth=0 } }
run 1
