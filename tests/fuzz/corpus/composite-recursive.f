define flowop name=loop
{
  flowop loop name=again
}
define process name=p { thread name=t { flowop loop name=l } }
