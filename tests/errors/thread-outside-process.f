define thread name=t
