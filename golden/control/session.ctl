%begin 1796024404 264 0
%end 1796024404 264 0
%session-changed $0 main
%begin 1796024405 269 1
%end 1796024405 269 1
%output %0 printf 'a\134\134b \134345\134255\134227 \134377\134376 \134033[1mX\134033[0m\134n'
%begin 1796024405 270 1
%end 1796024405 270 1
%output %0 \015\012a\134b 字 �� \033[1mX\033[0m\015\012# 
%begin 1796024405 271 1
%end 1 2 1
%end 1796024405 271 1
%begin 1796024405 272 1
%end 1796024405 272 1
%window-pane-changed @0 %1
%layout-change @0 8205,80x24,0,0{40x24,0,0,0,39x24,41,0,1} 8205,80x24,0,0{40x24,0,0,0,39x24,41,0,1} *
%output %1 # 
%begin 1796024405 275 1
%end 1796024405 275 1
%window-pane-changed @0 %2
%layout-change @0 d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]} d67e,80x24,0,0{40x24,0,0,0,39x24,41,0[39x12,41,0,1,39x11,41,13,2]} *
%output %2 # 
%begin 1796024405 278 1
%pause %0
%end 1796024405 278 1
%begin 1796024405 279 1
%2
%end 1796024405 279 1
%begin 1796024405 280 1
%continue %0
%end 1796024405 280 1
%begin 1796024406 281 1
%end 1796024406 281 1
%begin 1796024406 282 1
%end 1796024406 282 1
%begin 1796024406 283 1
%end 1796024406 283 1
%extended-output %1 0 : echo 漢字かな\015\012
%extended-output %1 0 : 漢字かな\015\012# 
%begin 1796024406 284 1
%end 1796024406 284 1
%subscription-changed dead $0 @0 0 %0 : 0
%subscription-changed dead $0 @0 0 %1 : 0
%subscription-changed dead $0 @0 0 %2 : 0
%begin 1796024407 285 1
%end 1796024407 285 1
%begin 1796024407 286 1
%end 1796024407 286 1
%begin 1796024407 287 1
%end 1796024407 287 1
%begin 1796024407 288 1
can't find pane: %99
%error 1796024407 288 1
%unlinked-window-add @1
%unlinked-window-renamed @1 re named
%unlinked-window-close @1
%begin 1796024408 292 1
%end 1796024408 292 1
%session-renamed $0 m ain
%begin 1796024408 294 1
%end 1796024408 294 1
%sessions-changed
%exit
