%output %0 first row\033[999C|\015\012
%output %0 a long line: word01 word02 word03 word04 word05 word06 word07 word08 word09 word10 word11 word12 word13 word14 word15 word16 word17 word18 word19 word20 word21 word22 word23 word24 word25 word26 word27 word28 word29 word30 \015\012
%output %0 cursor parked mid-row\033[999C<\015\012\033[40C
%layout-change @0 b19d,50x24,0,0,0 b19d,50x24,0,0,0 *
%layout-change @0 a67d,100x20,0,0,0 a67d,100x20,0,0,0 *
%output %0 \015\012
%output %0 \015\012after the resizes\033[999C|\015\012
%layout-change @0 a21d,70x20,0,0,0 a21d,70x20,0,0,0 *
