package httpd

import "strings"

// maxParams bounds path parameters per route.
const maxParams = 2

// node is a segment trie per method. Static children win over a parameter
// child, so /transactions/export is never taken for /transactions/{id}.
type node struct {
	static    map[string]*node
	param     *node
	paramName string
	route     int // index in the route table; -1: no route ends here
}

// router maps (method, path) to a route of the table (its index, which
// also finds the route's metrics row) with no allocation for the lookup.
type router struct {
	methods map[string]*node
}

func newRouter(routes []route) *router {
	r := &router{methods: map[string]*node{}}
	for i := range routes {
		rt := &routes[i]
		root := r.methods[rt.Method]
		if root == nil {
			root = &node{route: -1}
			r.methods[rt.Method] = root
		}
		n := root
		nparams := 0
		for _, seg := range strings.Split(strings.Trim(rt.Path, "/"), "/") {
			if strings.HasPrefix(seg, "{") {
				nparams++
				if n.param == nil {
					n.param = &node{paramName: seg[1 : len(seg)-1], route: -1}
				}
				n = n.param
				continue
			}
			if n.static == nil {
				n.static = map[string]*node{}
			}
			if n.static[seg] == nil {
				n.static[seg] = &node{route: -1}
			}
			n = n.static[seg]
		}
		if n.route >= 0 || nparams > maxParams {
			panic("httpd: duplicate or over-parameterized route " + rt.Method + " " + rt.Path)
		}
		n.route = i
	}
	return r
}

// params holds the values of path parameters, copied out of the request.
type params struct {
	n      int
	names  [maxParams]string
	values [maxParams]string
}

// get returns the value of the named parameter.
func (p *params) get(name string) string {
	for i := 0; i < p.n; i++ {
		if p.names[i] == name {
			return p.values[i]
		}
	}
	return ""
}

// match finds the route for a path relative to the base path: its index
// in the table, -1 for none.
func (r *router) match(method string, path []byte, p *params) int {
	n := r.methods[method]
	if n == nil || len(path) == 0 || path[0] != '/' {
		return -1
	}
	path = path[1:]
	for len(path) > 0 {
		i := 0
		for i < len(path) && path[i] != '/' {
			i++
		}
		seg := path[:i]
		if i < len(path) {
			path = path[i+1:]
			if len(path) == 0 {
				return -1 // trailing slash
			}
		} else {
			path = path[i:]
		}
		if len(seg) == 0 {
			return -1
		}
		if next := n.static[string(seg)]; next != nil {
			n = next
			continue
		}
		if n.param == nil || p.n == maxParams {
			return -1
		}
		p.names[p.n], p.values[p.n] = n.param.paramName, string(seg)
		p.n++
		n = n.param
	}
	return n.route
}
