# jq definitions shared by the summaries (host-summary.sh, kernel-summary.sh):
#   jq -L "$here" 'include "summary"; ...'

# The median of an array of numbers; null for an empty one.
def median: sort | length as $n |
  if $n == 0 then null elif $n % 2 == 1 then .[($n - 1) / 2]
  else (.[$n / 2 - 1] + .[$n / 2]) / 2 end;

# Rounded to one decimal.
def r1: (. * 10 | round) / 10;

# A page size in kB as the tables print it: 4k, 2M, 1G.
def psize: if . == null then "?" elif . >= 1048576 then "\(. / 1048576)G"
  elif . >= 1024 then "\(. / 1024)M" else "\(.)k" end;
